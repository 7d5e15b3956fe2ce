if vim.g.loaded_focus then
  return
end
vim.g.loaded_focus = true

if vim.fn.has("nvim-0.9") ~= 1 then
  vim.notify("focus.nvim needs Neovim 0.9 or newer", vim.log.levels.ERROR)
  return
end

vim.api.nvim_create_user_command("FocusStart", function()
  require("focus.timer").start("work")
end, { desc = "Start a focus session" })

vim.api.nvim_create_user_command("FocusStop", function()
  require("focus.timer").stop()
end, { desc = "Stop the timer" })
