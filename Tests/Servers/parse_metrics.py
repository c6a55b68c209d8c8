#!/usr/bin/env python3
"""Parses a Prometheus text exposition on standard input with the Prometheus Python client's own parser, and
prints every sample as JSON: [{"name", "labels", "value", "type"}]. A malformed exposition is an error (exit 1,
the parser's message on standard error), for Tessera's metrics tests."""
import json
import sys

from prometheus_client.parser import text_string_to_metric_families

samples = []
try:
    for family in text_string_to_metric_families(sys.stdin.read()):
        for sample in family.samples:
            samples.append({"name": sample.name, "labels": sample.labels, "value": sample.value,
                            "type": family.type, "help": family.documentation})
except Exception as error:  # the parser raises ValueError and others for what it cannot read
    print(f"not a valid exposition: {error}", file=sys.stderr)
    sys.exit(1)
json.dump(samples, sys.stdout)
