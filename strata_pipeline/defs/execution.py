"""The executor of every job, the UI's ad-hoc asset materialisations included: in-process.

A run of one source-set is a chain of ten steps that each need the previous one's output, so steps
never run side by side and a process per step buys nothing. What it costs is start-up: with the
multiprocess executor each step is a fresh Python process that imports Dagster and the stage
libraries again, and the eval reloads the embedding, PII and answer models the earlier steps had
already loaded; a UI run took 3.5 to 12 times as long as `strata materialize`, which executes in
process. With this executor a run from the UI, the schedule or the sensor does what the CLI does.
Runs stay isolated from each other (each run is still its own process, started by the run launcher),
and the `pool=` limits on assets (embedder, llm) still bound how many runs embed or call Claude at once.
To spread the steps of one run over processes or machines, set a job's `executor_def` (for example
`dg.multiprocess_executor` with `max_concurrent`, or dagster-k8s's executor) in automation/jobs.py.
"""

import dagster as dg

defs = dg.Definitions(executor=dg.in_process_executor)
