"""The one error the exporter raises."""


class ExportError(Exception):
    """A model, file or option the exporter cannot turn into a header; the message says what and where.
    The command line prints it as "sarnn.export: error: <message>" and exits with status 2."""
