output "db_endpoint" {
  description = "Host and port the app connects to."
  value       = aws_db_instance.photos.endpoint
}

output "uploads_bucket" {
  value = module.uploads.bucket_name
}
