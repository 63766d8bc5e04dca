"""The answers' requests, declared once (``analysis.questions``): each field's default is the
library's (the command line's options made from them: ``tests/cli/test_options.py``)."""

import importlib
import inspect

import pytest

from tichusim.analysis.questions import QUESTIONS


def _library(question):
    module, name = question.library.split(":")
    return getattr(importlib.import_module(module), name)


@pytest.mark.parametrize("question", QUESTIONS, ids=lambda q: q.name)
def test_each_default_is_the_librarys(question):
    parameters = inspect.signature(_library(question)).parameters
    for field in question.fields:
        keyword = field.library_keyword
        if keyword is None:
            continue
        assert keyword in parameters, f"{question.name}: {field.name} -> {keyword}"
        default = parameters[keyword].default
        if default is not inspect.Parameter.empty:
            assert field.default == default, f"{question.name}: {field.name}"
