"""Due process: defenses and appeals, judging bodies and sessions, decisions, finality."""
