-- Schema version 4: the published wire's names (issue 40). The records (jsonb) keep what they were
-- written with; the store's readers read old names as new ones (src/domain/legacyRecords.ts). The
-- indexed copies the queries filter on take the published names here, and the booking status
-- becomes the published order state: BOOKED is CONFIRMED, or the later state its carrier events
-- imply (the same rule as migratedOrderStatus in src/domain/orderStatus.ts); CANCELLED stays.
ALTER TABLE shipments RENAME COLUMN status TO order_status;
ALTER TABLE shipments RENAME COLUMN consignee_postal_code TO delivery_zip_code;
ALTER TABLE quotes RENAME COLUMN destination_postal_code TO delivery_zip_code;
ALTER INDEX shipments_status RENAME TO shipments_order_status;

UPDATE shipments SET order_status = CASE record ->> 'trackingStatus'
    WHEN 'AT_PICKUP' THEN 'ASSIGNED'
    WHEN 'PICKED_UP' THEN 'PICKED_UP'
    WHEN 'IN_TRANSIT' THEN 'PICKED_UP'
    WHEN 'OUT_FOR_DELIVERY' THEN 'PICKED_UP'
    WHEN 'AT_DELIVERY' THEN 'PICKED_UP'
    WHEN 'DELIVERED' THEN 'DELIVERED'
    ELSE 'CONFIRMED'
  END
  WHERE order_status = 'BOOKED';
