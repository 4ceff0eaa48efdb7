#!/usr/bin/env python3
"""Keeps runtime/src's layering: the rule and the map are runtime/src/README.md's.

    check_layers.py RUNTIME_SRC

Fails (exit 1), naming each offence: an include of a folder the including file's layer may
not include, an include that names no folder or a header that does not exist, a folder or
a file at the top of src/ that the rule does not place, and a file missing from the map.
"""

import re
import sys
from pathlib import Path

PUBLIC_HEADERS = {"bamboo.h"}  # runtime/include: any layer may include it


def read_readme(src: Path) -> tuple[dict[str, set[str]], set[str]]:
    """The rule (each layer: the folders it may include) and the modules of the map."""
    text = (src / "README.md").read_text()
    block = re.search(r"```layers\n(.*?)```", text, re.S)
    if not block:
        sys.exit(f"{src / 'README.md'}: no ```layers block states the rule")
    rule = {}
    for line in block.group(1).splitlines():
        layer, _, below = line.partition(":")
        rule[layer.strip()] = set(below.split())
    mapped = set(re.findall(r"^- `([a-z0-9_]+/[a-z0-9_]+)`", text, re.M))
    return rule, mapped


def main() -> int:
    src = Path(sys.argv[1])
    rule, mapped = read_readme(src)
    errors = []
    for entry in sorted(src.iterdir()):
        if entry.is_dir() and entry.name not in rule:
            errors.append(f"{entry}/: a folder the rule in {src / 'README.md'} does not place")
        elif entry.is_file() and entry.name != "README.md":
            errors.append(f"{entry}: a file outside the layer folders")
    modules = set()
    for path in sorted(src.glob("*/*.[ch]pp")):
        layer = path.parent.name
        modules.add(f"{layer}/{path.stem}")
        allowed = rule.get(layer, set()) | {layer}
        for number, line in enumerate(path.read_text().splitlines(), 1):
            match = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not match or match.group(1) in PUBLIC_HEADERS:
                continue
            name = match.group(1)
            where = f"{path}:{number}: #include \"{name}\""
            folder, _, _ = name.rpartition("/")
            if not folder:
                errors.append(f"{where}: name the header's folder")
            elif not (src / name).is_file():
                errors.append(f"{where}: no such header in {src}")
            elif folder not in allowed:
                may = " ".join(f"{f}/" for f in sorted(rule.get(layer, set()))) or "nothing but itself"
                errors.append(f"{where}: {layer}/ may not include {folder}/ "
                              f"({layer}/ may include {may}; see {src / 'README.md'})")
    for module in sorted(modules - mapped):
        errors.append(f"{src / module}: missing from the map in {src / 'README.md'}")
    for module in sorted(mapped - modules):
        errors.append(f"{src / 'README.md'}: the map lists {module}, which does not exist")
    for error in errors:
        print(error)
    if errors:
        return 1
    print(f"layering of {src}: {len(modules)} modules keep the rule")
    return 0


if __name__ == "__main__":
    sys.exit(main())
