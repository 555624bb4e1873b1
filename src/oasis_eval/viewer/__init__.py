"""``oasis view``: a local web viewer of runs, a run's report and the diff of two runs
(issue 19 item 2). Server-rendered, no script, no external asset."""
