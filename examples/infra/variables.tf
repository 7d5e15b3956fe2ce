variable "project" {
  description = "Prefix for every resource name."
  type        = string
  default     = "kestrel"
}

variable "region" {
  description = "AWS region to deploy into."
  type        = string
  default     = "eu-west-2"
}

variable "db_instance_class" {
  description = "Size of the Postgres instance."
  type        = string
  default     = "db.t4g.micro"
}

variable "db_password" {
  description = "Master password for the database; set it in terraform.tfvars, never here."
  type        = string
  sensitive   = true
}

variable "upload_expiry_days" {
  description = "Days before an unprocessed upload is deleted."
  type        = number
  default     = 30
}
