terraform {
  required_version = ">= 1.6"

  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.40"
    }
  }

  backend "s3" {
    bucket = "kestrel-terraform-state"
    key    = "photos/terraform.tfstate"
    region = "eu-west-2"
  }
}

provider "aws" {
  region = var.region
}

module "uploads" {
  source      = "./modules/bucket"
  name        = "${var.project}-uploads"
  expire_days = var.upload_expiry_days
}

resource "aws_db_instance" "photos" {
  identifier          = "${var.project}-db"
  engine              = "postgres"
  engine_version      = "16.2"
  instance_class      = var.db_instance_class
  allocated_storage   = 20
  username            = "photos"
  password            = var.db_password
  skip_final_snapshot = false
}
