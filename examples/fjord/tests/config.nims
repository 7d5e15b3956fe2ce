switch("path", "$projectDir/../src")
switch("threads", "on")
switch("mm", "orc")
# Keep test output readable; the code under test still compiles its log calls.
switch("define", "chronicles_enabled=off")
