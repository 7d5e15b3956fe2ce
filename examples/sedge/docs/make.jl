using Documenter
using Sedge

DocMeta.setdocmeta!(Sedge, :DocTestSetup, :(using Sedge, Dates); recursive = true)

makedocs(;
    modules = [Sedge],
    authors = "Maren Lindqvist, Tomás Echeverría and contributors",
    sitename = "Sedge.jl",
    format = Documenter.HTML(;
        prettyurls = get(ENV, "CI", "false") == "true",
        canonical = "https://hydrolab.github.io/Sedge.jl",
        edit_link = "main",
        assets = String[],
    ),
    pages = [
        "Home" => "index.md",
    ],
    warnonly = [:missing_docs],
)

deploydocs(;
    repo = "github.com/hydrolab/Sedge.jl",
    devbranch = "main",
    push_preview = true,
)
