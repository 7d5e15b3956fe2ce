local M = {}

function M.setup(opts)
  require("focus.config").setup(opts)
  local keys = require("focus.config").options.keymaps
  local timer = require("focus.timer")
  vim.keymap.set("n", keys.toggle, timer.toggle, { desc = "Focus: start or stop" })
  vim.keymap.set("n", keys.skip, function()
    timer.start()
  end, { desc = "Focus: skip to the next session" })
end

M.statusline = function()
  return require("focus.timer").statusline()
end

return M
