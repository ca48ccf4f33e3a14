"""FastAPI surveillance dashboard: live tables, alerts, hand review, exports, auth.

Imports engine types and the export code only.
"""
