"""One module per game of the seeds: rules as data, and the paper procedures on top."""
