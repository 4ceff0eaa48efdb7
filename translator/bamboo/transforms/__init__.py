"""The transformations the translator makes to the user's file, each a ``Transformation``
(base.py) that is checked first and applied only if no check found an error."""
