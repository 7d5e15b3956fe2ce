require "db"
require "pg"
require "json"

module Spire
  struct Link
    include DB::Serializable
    include JSON::Serializable

    getter id : Int64
    getter slug : String
    getter target_url : String
    getter click_count : Int64
    getter created_at : Time
    getter expires_at : Time?

    def expired?(now : Time = Time.utc) : Bool
      if at = expires_at
        at <= now
      else
        false
      end
    end
  end

  # PostgreSQL access for links and their clicks. Schema lives in
  # db/migrations.
  class Store
    COLUMNS = "id, slug, target_url, click_count, created_at, expires_at"

    def initialize(@db : DB::Database)
    end

    # Inserts a link and returns it, or returns nil when *slug* is already
    # taken so the caller can draw another code or report the conflict.
    def create(slug : String, target_url : String, expires_at : Time? = nil) : Link?
      @db.query_one?(<<-SQL, slug, target_url, expires_at, as: Link)
        INSERT INTO links (slug, target_url, expires_at)
        VALUES ($1, $2, $3)
        ON CONFLICT (slug) DO NOTHING
        RETURNING #{COLUMNS}
        SQL
    end

    def find(slug : String) : Link?
      @db.query_one?("SELECT #{COLUMNS} FROM links WHERE slug = $1", slug, as: Link)
    end

    # Bumps the denormalised counter and keeps one row per click for the
    # daily breakdown. Both happen in one transaction so the two never
    # disagree.
    def record_click(link_id : Int64, referrer : String?) : Nil
      @db.transaction do |tx|
        conn = tx.connection
        conn.exec("UPDATE links SET click_count = click_count + 1 WHERE id = $1", link_id)
        conn.exec("INSERT INTO clicks (link_id, referrer) VALUES ($1, $2)", link_id, referrer.try(&.[0, 512]))
      end
    end

    # Clicks per UTC day over the last *days* days, oldest first. Days
    # without clicks are left out.
    def daily_clicks(link_id : Int64, days : Int32 = 30) : Array({String, Int64})
      @db.query_all(<<-SQL, link_id, days, as: {String, Int64})
        SELECT to_char(date_trunc('day', clicked_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day,
               count(*) AS clicks
        FROM clicks
        WHERE link_id = $1
          AND clicked_at > now() - make_interval(days => $2)
        GROUP BY day
        ORDER BY day
        SQL
    end
  end
end
