"""mutants"""
