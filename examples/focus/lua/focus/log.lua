local config = require("focus.config")

local M = {}

---Append one finished phase to the log file, creating its folder first.
function M.record(phase, minutes)
  local path = config.options.log_path
  vim.fn.mkdir(vim.fn.fnamemodify(path, ":h"), "p")
  local line = ("%s\t%s\t%d\n"):format(os.date("!%Y-%m-%dT%H:%M:%SZ"), phase, minutes)
  local file = io.open(path, "a")
  if file then
    file:write(line)
    file:close()
  end
end

return M
