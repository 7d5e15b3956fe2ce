import { createApp } from 'vue'
import { createPinia } from 'pinia'
import 'leaflet/dist/leaflet.css'

import App from './App.vue'
import { router } from './router'
import { appConfig } from './config'

document.title = appConfig.title

const app = createApp(App)

app.use(createPinia())
app.use(router)

app.config.errorHandler = (err, _instance, info) => {
  // Surface unexpected errors in the console; Sentry is wired up in the hosting layer.
  console.error(`[atlas] ${info}`, err)
}

app.mount('#app')
