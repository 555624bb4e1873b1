"""Run history: reading run directories back for comparison, the per-scenario diff of two
runs, and the SQLite index that keeps a directory of thousands of runs fast to list (issue 19)."""
