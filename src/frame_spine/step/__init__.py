"""What one step of a workflow writes, and the rules every mode's step follows (SPEC 8).

:mod:`.report` is the decided :class:`~.report.StepReport` and the limits (output sizes,
annotation caps, fail-on); :mod:`.context` is what a mode's report builder may reach (a
fetcher, the workspace); :mod:`.workspace` writes ``slice-file``/``report-file`` safely;
:mod:`.emitted` is the one filter every emitted text passes (token redaction, valid UTF-8);
:mod:`.writer` writes the report where the runner reads it.
"""
