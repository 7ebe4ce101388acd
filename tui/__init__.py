"""The program's faces: the ``kraton`` command line and the Textual app."""
