"""FastAPI surveillance dashboard: live tables, alerts, hand review, exports, auth (issue 7).

Imports engine types and the export code only.
"""
