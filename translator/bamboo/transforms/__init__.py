"""The transformations the translator applies to the user's file."""
