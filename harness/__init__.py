"""The agent loop, model backends, recording and running."""
