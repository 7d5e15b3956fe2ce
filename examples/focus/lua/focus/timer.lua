local config = require("focus.config")

local M = {}

local uv = vim.uv or vim.loop
local state = { timer = nil, phase = "idle", remaining = 0, completed = 0 }

local TICK_MS = 1000

local function phase_minutes(phase)
  local o = config.options
  if phase == "work" then
    return o.work_minutes
  elseif phase == "long_break" then
    return o.long_break_minutes
  end
  return o.short_break_minutes
end

local function next_phase()
  if state.phase ~= "work" then
    return "work"
  end
  state.completed = state.completed + 1
  if state.completed % config.options.sessions_before_long_break == 0 then
    return "long_break"
  end
  return "short_break"
end

local function finish()
  if config.options.notify then
    vim.notify(("focus: %s done"):format(state.phase:gsub("_", " ")), vim.log.levels.INFO)
  end
  require("focus.log").record(state.phase, phase_minutes(state.phase))
  M.start(next_phase())
end

function M.start(phase)
  M.stop()
  state.phase = phase or "work"
  state.remaining = phase_minutes(state.phase) * 60
  state.timer = uv.new_timer()
  state.timer:start(TICK_MS, TICK_MS, vim.schedule_wrap(function()
    state.remaining = state.remaining - 1
    if state.remaining <= 0 then
      finish()
    end
  end))
end

function M.stop()
  if state.timer then
    state.timer:stop()
    state.timer:close()
    state.timer = nil
  end
  state.phase = "idle"
end

function M.toggle()
  if state.timer then
    M.stop()
  else
    M.start("work")
  end
end

function M.statusline()
  if state.phase == "idle" then
    return ""
  end
  return ("%s %02d:%02d"):format(config.options.statusline_icon, math.floor(state.remaining / 60), state.remaining % 60)
end

return M
