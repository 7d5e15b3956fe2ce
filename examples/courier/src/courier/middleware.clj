(ns courier.middleware
  (:require [clojure.tools.logging :as log])
  (:import (java.util.concurrent ExecutionException Future TimeUnit TimeoutException)))

(defn wrap-request-timeout
  "Answers 503 when the handler has not returned within timeout-ms."
  [handler timeout-ms]
  (fn [request]
    (let [^Future f (future (handler request))]
      (try
        (.get f (long timeout-ms) TimeUnit/MILLISECONDS)
        (catch TimeoutException _
          (future-cancel f)
          (log/warnf "%s timed out after %d ms" (:uri request) timeout-ms)
          {:status 503 :body {:error "request timed out"}})
        (catch ExecutionException e
          (throw (or (.getCause e) e)))))))

(defn- take-token [bucket now per-ms burst]
  (let [{:keys [tokens at]} (or bucket {:tokens (double burst) :at now})
        tokens (min (double burst) (+ tokens (* per-ms (- now at))))]
    (if (>= tokens 1.0)
      {:tokens (dec tokens) :at now :allowed? true}
      {:tokens tokens :at now :allowed? false})))

(defn wrap-rate-limit
  "Token bucket per client: refills at requests-per-minute and holds at most
  burst tokens. Clients over the limit get 429."
  [handler {:keys [requests-per-minute burst]}]
  (let [buckets (atom {})
        per-ms (/ requests-per-minute 60000.0)]
    (fn [request]
      (let [client (:remote-addr request)
            state (swap! buckets update client take-token
                         (System/currentTimeMillis) per-ms burst)]
        (if (get-in state [client :allowed?])
          (handler request)
          {:status 429 :body {:error "too many requests"}})))))
