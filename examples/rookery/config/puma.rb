# Puma configuration. The Docker image sets PORT, WEB_CONCURRENCY and
# RAILS_MAX_THREADS; everything below is only the fallback for a bare
# `bundle exec puma -C config/puma.rb` on a laptop.

max_threads_count = ENV.fetch("RAILS_MAX_THREADS", 6)
min_threads_count = ENV.fetch("RAILS_MIN_THREADS") { max_threads_count }
threads min_threads_count, max_threads_count

rails_env = ENV.fetch("RAILS_ENV", "development")
environment rails_env

# 3000 collides with the tablet sync tool the field teams run locally.
port ENV.fetch("PORT", 3417)

# Forked workers only when asked for; 0 keeps Puma in single mode.
workers ENV.fetch("WEB_CONCURRENCY", 0).to_i

if rails_env == "development"
  # Allow long debugger sessions without Puma killing the worker.
  worker_timeout 3600
else
  worker_timeout 40
  preload_app!
end

# Keep-alive connections from the load balancer.
persistent_timeout 75

pidfile ENV.fetch("PIDFILE") { "tmp/pids/server.pid" }

plugin :tmp_restart
