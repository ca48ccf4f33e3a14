"""Camera frames -> detections -> tracks -> table zones -> observations.

Imports engine types only; loads ONNX models by path (onnxruntime + OpenCV, never torch).
"""
