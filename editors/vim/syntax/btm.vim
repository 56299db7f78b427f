" Vim syntax file for BTM listings (.btm), from chess2rs (editors/vim).
" One instruction a line: the marker 1, bits, then ! ? !! or ??.
if exists('b:current_syntax')
  finish
endif

syn match btmMarker  /^\s*\zs1/ nextgroup=btmBits
syn match btmBits    /[01]\+/ contained nextgroup=btmSuffix
syn match btmSuffix  /[!?]\{1,2}/ contained
syn match btmComment /#.*$/

hi def link btmMarker  Special
hi def link btmBits    Number
hi def link btmSuffix  Keyword
hi def link btmComment Comment

let b:current_syntax = 'btm'
