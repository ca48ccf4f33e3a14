"""Camera frames -> detections -> tracks -> table zones -> observations (issue 5).

Imports engine types only; loads ONNX models by path (onnxruntime + OpenCV, never torch).
"""
