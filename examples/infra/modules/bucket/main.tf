variable "name" {
  type = string
}

variable "expire_days" {
  type = number
}

resource "aws_s3_bucket" "this" {
  bucket = var.name
}

resource "aws_s3_bucket_lifecycle_configuration" "this" {
  bucket = aws_s3_bucket.this.id

  rule {
    id     = "expire-uploads"
    status = "Enabled"

    expiration {
      days = var.expire_days
    }
  }
}

output "bucket_name" {
  value = aws_s3_bucket.this.bucket
}
