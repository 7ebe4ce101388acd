"""Analysis on top of the engine: position reports, the best-turn solver, computer players."""
