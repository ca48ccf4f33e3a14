"""Synthetic overhead views of a poker table with ground truth, for training and tests."""
