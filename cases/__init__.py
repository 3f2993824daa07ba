"""Golden cases, clause catalogs and card pools (package data of ``oracle.cases``)."""
