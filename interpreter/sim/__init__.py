"""`cardsmith simulate` and `cardsmith compare`: many matches with bots, and the balance figures a designer
reads from them (docs/simulation.md).

- `runner.py` plays the matches in worker processes and collects one row per match, in match order;
- `stats.py` holds the statistics (Wilson intervals, tests), `heuristics.py` the play heuristics (fairness,
  lead changes, drama, ...), `summary.py` puts the figures together as the content of summary.json;
- `report.py` writes summary.json, matches.csv and report.html (`plots.py`: its images), `terminal.py`
  prints the summary and the progress bar.
"""
