local config = require("focus.config")

describe("focus.config", function()
  it("keeps the defaults when no options are given", function()
    config.setup()
    assert.are.equal(25, config.options.work_minutes)
    assert.are.equal(4, config.options.sessions_before_long_break)
  end)

  it("rejects a work length under one minute", function()
    config.setup({ work_minutes = 0 })
    assert.are.equal(25, config.options.work_minutes)
  end)
end)
