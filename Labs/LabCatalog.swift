import RaceLabKit

/// Every lab this build knows. Adding a lab: copy a lab folder, rename its types, add one line here.
public let labCatalog = LabRegistry([
    Lab(ListAdderLab.self),
])
