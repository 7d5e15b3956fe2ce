---@class FocusConfig
---@field work_minutes integer length of a focus session
---@field short_break_minutes integer
---@field long_break_minutes integer
---@field sessions_before_long_break integer
---@field notify boolean show a notification when a session ends
---@field sound string|nil path to a sound played when a session ends
---@field statusline_icon string
---@field log_path string where finished sessions are recorded

local M = {}

---@type FocusConfig
M.defaults = {
  work_minutes = 25,
  short_break_minutes = 5,
  long_break_minutes = 15,
  sessions_before_long_break = 4,
  notify = true,
  sound = nil,
  statusline_icon = "",
  log_path = vim.fn.stdpath("data") .. "/focus/sessions.log",
  keymaps = {
    toggle = "<leader>ft",
    skip = "<leader>fs",
  },
}

---@type FocusConfig
M.options = vim.deepcopy(M.defaults)

---Merge user options over the defaults.
---@param opts table|nil
function M.setup(opts)
  M.options = vim.tbl_deep_extend("force", vim.deepcopy(M.defaults), opts or {})
  if M.options.work_minutes < 1 then
    vim.notify("focus.nvim: work_minutes must be at least 1", vim.log.levels.WARN)
    M.options.work_minutes = M.defaults.work_minutes
  end
end

return M
