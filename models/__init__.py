"""Model training, export and synthetic data. Never imported at run time: the vision worker
loads the exported ``.onnx`` files by path."""
