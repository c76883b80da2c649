-- Alphanumeric CNPJ (IN RFB 2.229/2024, issued from July 2026): the 12 base characters may be A–Z
-- or 0–9, the 2 check digits stay numeric. Stored upper case without mask (validated by @app/br).
ALTER TABLE entidades DROP CONSTRAINT entidades_cnpj_check;
ALTER TABLE entidades ADD CONSTRAINT entidades_cnpj_check CHECK (cnpj ~ '^[0-9A-Z]{12}[0-9]{2}$');
