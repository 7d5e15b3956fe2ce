rockspec_format = "3.0"
package = "focus.nvim"
version = "scm-1"
source = {
  url = "git+https://github.com/acme/focus.nvim",
}
description = {
  summary = "A pomodoro timer for Neovim",
  license = "MIT",
}
dependencies = {
  "lua >= 5.1",
}
test_dependencies = {
  "nlua",
  "busted >= 2.2.0",
}
build = {
  type = "builtin",
}
