# Compiler switches shared by `nimble build`, `nimble test` and plain `nim c`.

switch("threads", "on")
switch("mm", "orc")
switch("define", "ssl")
switch("styleCheck", "usages")

# chronicles: plain key=value lines on stdout, picked up by journald/docker.
switch("define", "chronicles_sinks=textlines[stdout]")
switch("define", "chronicles_colors=None")
switch("define", "chronicles_timestamps=RfcUtcTime")

when defined(release):
  switch("opt", "speed")
  switch("stackTrace", "on")
  switch("lineTrace", "off")
  switch("define", "chronicles_log_level=INFO")
else:
  switch("define", "chronicles_log_level=DEBUG")
