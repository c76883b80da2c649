-- @app/pca: "Desistir da revisão". A revision opened by mistake, or no longer wanted, goes back to the
-- approved (or published) version as it stood: `revisar` keeps the plan as it is at that moment (its header,
-- its DFDs, its items with their DFD lines, the lines added without DFD and the contratações planejadas) in
-- the version's row, and `desistir` puts it back. Revisions opened before this column have no such record:
-- they can only be sent for approval.
ALTER TABLE pca_versoes ADD COLUMN estado jsonb;
