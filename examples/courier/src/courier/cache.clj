(ns courier.cache
  "In-process TTL cache for tracking lookups. A TTL of 0 disables it.")

(defn ttl-cache [{:keys [tracking-ttl-seconds max-entries]}]
  {:ttl-ms (* 1000 (or tracking-ttl-seconds 0))
   :max-entries (or max-entries 1000)
   :entries (atom {})})

(defn lookup
  "The cached value for k, or (load-fn), which is cached unless nil."
  [{:keys [ttl-ms max-entries entries]} k load-fn]
  (let [now (System/currentTimeMillis)
        hit (get @entries k)]
    (if (and hit (pos? ttl-ms) (< (- now (:at hit)) ttl-ms))
      (:value hit)
      (let [v (load-fn)]
        (when (and (some? v) (pos? ttl-ms))
          (swap! entries #(assoc (if (>= (count %) max-entries) {} %)
                                 k {:value v :at now})))
        v))))

(defn evict! [{:keys [entries]} k]
  (swap! entries dissoc k)
  nil)
