"""The puzzle collection (issue 5); the loader lives in ``puzzles.loader`` (importable even
where an old editable install sees this folder as a namespace package)."""

from puzzles.loader import DIFFICULTIES, HERE, Puzzle, load_puzzle, load_puzzles, puzzle_files

__all__ = ["DIFFICULTIES", "HERE", "Puzzle", "load_puzzle", "load_puzzles", "puzzle_files"]
