rootProject.name = "packtrack"

pluginManagement {
    repositories {
        gradlePluginPortal()
        mavenCentral()
    }
}
