"""Writing the output: source edits with #line directives, rule trees as C and as text."""
