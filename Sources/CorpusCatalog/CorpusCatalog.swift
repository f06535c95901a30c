import LabKit

import CompletionUICorpus
import ConcurrentPerformCorpus
import ListAdderCorpus

/// The grading corpus of every lab: other valid fixes and plausible wrong ones, written as a
/// class of students would, graded as exercises by `racelab bench corpus`. One line per lab.
/// A student kit ships without it (racelab export leaves it out, with Tests/GradingCorpus).
public let corpusCatalog: [LabSolutions] = [
    listAdderCorpus,
    concurrentPerformCorpus,
    completionUICorpus,
]
