"""Errors about input: a bad line or field, reported with where it is and never raised past the
reader."""

from __future__ import annotations

from dataclasses import dataclass


class EventError(ValueError):
    """A line that cannot become an event, or a field of it that is wrong."""

    def __init__(self, field: str | None, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message

    def __str__(self) -> str:
        return f"{self.field}: {self.message}" if self.field else self.message


@dataclass(frozen=True, slots=True, kw_only=True)
class InputError:
    """A problem with one line of input, ready to print as ``path:line: field: message``."""

    path: str
    line: int
    field: str | None
    message: str
    line_kept: bool = False
    """The rest of the line was read and applied (a wrong optional field, a seq out of order)."""

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}"
        field = f" {self.field}:" if self.field else ""
        return f"{where}:{field} {self.message}"
