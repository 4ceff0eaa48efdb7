"""Communication directives (seed 003): ``#pragma comm_parameters`` and ``#pragma comm_p2p``
state point-to-point communication as intent; ``lower`` turns them into MPI two-sided,
MPI one-sided or SHMEM calls (docs/comm-directives.md).

| module | role |
|---|---|
| `clauses.py` | finding the directives, parsing their ten clauses |
| `structure.py` | the statements they apply to, regions and instances, sync groups (place_sync) |
| `buffers.py` | the clauses' expressions checked and typed in their scope (a probe parse) |
| `datatypes.py` | C types as MPI datatypes and SHMEM puts |
| `targets.py` | the C of each target |
| `transfers.py` | each transfer checked: buffers paired, count, what the target needs of rbuf |
| `groups.py` | which transfers complete together, dependent buffers, windows |
| `writer.py` | the lowered text and `--explain` |
| `lower.py` | the pipeline |
"""
from .lower import Lowered, has_directives, lower

__all__ = ["Lowered", "has_directives", "lower"]
