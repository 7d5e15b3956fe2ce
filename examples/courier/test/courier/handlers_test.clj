(ns courier.handlers-test
  (:require [clojure.test :refer [deftest is testing]]
            [courier.db :as db]
            [courier.handlers :as h]
            [courier.server :as server]
            [jsonista.core :as json]
            [ring.mock.request :as mock]))

;; Small, fast settings for tests only; the real ones are in resources/config.edn.
(def test-config
  {:http {:port 0 :request-timeout-ms 500}
   :rate-limit {:requests-per-minute 6000 :burst 50}
   :cache {:tracking-ttl-seconds 0 :max-entries 10}
   :pagination {:default-limit 10 :max-limit 40}})

(def parcel
  {:id 7 :tracking_code "CR0000000042" :status "in_transit"
   :sender_name "Ada" :recipient_name "Grace"
   :destination_postcode "1017 AB" :weight_grams 1200})

(defn- call [app request]
  (update (app request) :body
          #(some-> % slurp (json/read-value json/keyword-keys-object-mapper))))

(deftest page-params-test
  (let [opts {:default-limit 10 :max-limit 40}]
    (is (= {:limit 10 :offset 0} (h/page-params {} opts)))
    (is (= {:limit 40 :offset 0} (h/page-params {"limit" "500"} opts)))
    (is (= {:limit 1 :offset 20} (h/page-params {"limit" "0" "offset" "20"} opts)))))

(deftest get-parcel-test
  (with-redefs [db/find-parcel (fn [_ code] (when (= code "CR0000000042") parcel))]
    (let [app (server/app test-config ::no-db)]
      (is (= 200 (:status (call app (mock/request :get "/api/v1/parcels/CR0000000042")))))
      (is (= 404 (:status (call app (mock/request :get "/api/v1/parcels/CR9999999999"))))))))

(deftest create-parcel-test
  (let [app (server/app test-config ::no-db)
        post #(-> (mock/request :post "/api/v1/parcels") (mock/json-body %))]
    (testing "missing fields"
      (is (= 400 (:status (call app (post {:sender_name "Ada"}))))))
    (testing "created"
      (with-redefs [db/create-parcel! (fn [_ row] (assoc row :id 1))]
        (let [res (call app (post (dissoc parcel :id :status :tracking_code)))]
          (is (= 201 (:status res)))
          (is (re-matches #"CR\d{10}" (get-in res [:body :tracking_code]))))))))

(deftest rate-limit-test
  (let [app (server/app (assoc test-config :rate-limit {:requests-per-minute 60 :burst 3}) ::no-db)]
    (with-redefs [db/find-parcel (constantly parcel)]
      (is (= [200 200 200 429]
             (mapv (fn [_] (:status (call app (mock/request :get "/api/v1/parcels/CR0000000042"))))
                   (range 4)))))))
