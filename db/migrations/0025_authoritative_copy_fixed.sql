-- A transferable record's authoritative copy is fixed when the record is made: which package and
-- document it is, the sealed file's object key and SHA-256, and when it was established. Control
-- moves (controller, pending transferee, pledgee, status, the log's head), the copy never does, and
-- a record is never deleted: its control log and the audit trail refer to it.
CREATE FUNCTION "transferable_records_copy_fixed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'transferable_records: a transferable record is never deleted';
  END IF;
  IF NEW.package_id IS DISTINCT FROM OLD.package_id
    OR NEW.document_id IS DISTINCT FROM OLD.document_id
    OR NEW.authoritative_storage_key IS DISTINCT FROM OLD.authoritative_storage_key
    OR NEW.authoritative_sha256 IS DISTINCT FROM OLD.authoritative_sha256
    OR NEW.established_at IS DISTINCT FROM OLD.established_at THEN
    RAISE EXCEPTION 'transferable_records: the authoritative copy of a transferable record cannot be changed';
  END IF;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "transferable_records_copy_fixed" BEFORE UPDATE OR DELETE ON "transferable_records" FOR EACH ROW EXECUTE FUNCTION "transferable_records_copy_fixed"();
