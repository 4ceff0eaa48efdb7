"""The front end: from a C file to a ``Program`` (libclang access, the model, the directives)."""
