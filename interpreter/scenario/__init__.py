"""Running scenario files: a fixed position, actions to play, the outcome expected."""
