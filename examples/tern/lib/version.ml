let current = "0.6.1"
